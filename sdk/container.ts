import { SdkError } from './errors.ts'

/**
 * Services looked up by name, each built on first use. createClient exposes its clients this way
 * too, so code that receives a client can ask for a service it is not sure exists.
 */
export type Container<services extends Record<string, unknown>> = {
  get<name extends keyof services & string>(name: name): services[name]
  get(name: string): unknown
  has(name: string): boolean
}

export function createContainer<services extends Record<string, unknown>>(
  factories: {
    [name in keyof services]: () => services[name]
  },
): Container<services> {
  const built = new Map<string, unknown>()
  return {
    get(name: string) {
      if (!Object.hasOwn(factories, name)) throw new SdkError(`Service ${name} not found in container`, { code: 'SERVICE_NOT_FOUND' })
      if (!built.has(name)) built.set(name, (factories as Record<string, () => unknown>)[name]!())
      return built.get(name)
    },
    has: (name) => Object.hasOwn(factories, name),
  } as Container<services>
}
