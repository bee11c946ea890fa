import type { TestProject } from 'vitest/node'
import { startStack } from '../../scripts/stack.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    providerUrl: string
    demoOrigin: string
    otherDemoOrigin: string
  }
}

/** One sandbox and the example host pages, on free ports, for the whole run (a build in dist/ is needed). */
export default async function setup(project: TestProject) {
  const stack = await startStack({ fresh: true, port: 0, anvilPort: 0, demoPort: 0, otherDemoPort: 0 })
  project.provide('providerUrl', stack.providerUrl)
  project.provide('demoOrigin', stack.demoOrigin)
  project.provide('otherDemoOrigin', stack.otherDemoOrigin)
  return () => stack.close()
}
