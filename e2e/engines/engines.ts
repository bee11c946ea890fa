import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Engine, EngineName, LaunchEngine } from './engine.ts'

const known: readonly EngineName[] = ['firefox', 'webkit']

/**
 * The engines an `ENGINES` value names (both when unset). A name this suite does not know is an
 * error, not a skip: a typo must not pass for a green run.
 */
export function parseEngines(value: string | undefined): EngineName[] {
  const names = (value ?? known.join(','))
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean)
  const unknown = names.filter((name) => !(known as readonly string[]).includes(name))
  if (unknown.length) throw new Error(`ENGINES names ${unknown.join(', ')}: this suite knows ${known.join(', ')}`)
  if (!names.length) throw new Error(`ENGINES is empty: name one or more of ${known.join(', ')}`)
  return [...new Set(names)] as EngineName[]
}

/** The engines this run tests: `ENGINES=firefox,webkit`. */
export const requestedEngines = () => parseEngines(process.env.ENGINES)

/** Each engine's adapter module and how to load its launcher. */
const adapters: Record<EngineName, { file: string; load: () => Promise<LaunchEngine> }> = {
  firefox: { file: 'firefox.ts', load: async () => (await import('./firefox.ts')).launchFirefox },
  webkit: { file: 'webkit.ts', load: async () => (await import('./webkit.ts')).launchWebkit },
}

/**
 * Starts `name`. An engine that was asked for but cannot run (its adapter file or its browser
 * missing) rejects with the reason: the test that needed it fails.
 */
export async function launchEngine(name: EngineName): Promise<Engine> {
  const { file, load } = adapters[name]
  const path = fileURLToPath(new URL(`./${file}`, import.meta.url))
  if (!existsSync(path)) throw new Error(`ENGINES asks for ${name}, but its adapter ${path} is missing`)
  return (await load())()
}
