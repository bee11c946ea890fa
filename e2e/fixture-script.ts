import { fileURLToPath } from 'node:url'
import { build } from 'vite'

/**
 * A fixture of e2e/fixtures/ bundled as one classic script for a page (an IIFE; what it exports is
 * the global `name`), to be added before the page loads (Playwright's addInitScript) or run in it
 * afterwards (the engine suite). `file` is the fixture's name in e2e/fixtures/.
 */
export async function fixtureScript(file: string, name: string): Promise<string> {
  const entry = fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url))
  const result = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry, formats: ['iife'], name } },
  })) as { output: { code: string }[] }[] | { output: { code: string }[] }
  return (Array.isArray(result) ? result[0]! : result).output[0]!.code
}
