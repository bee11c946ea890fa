import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { checkLayout } from './check-layout.ts'

// Each case checks a small git work tree: the clean one below, plus the files of the case.
type Files = Record<string, string>

const lacked = (name: string) => `${name}.md`

const clean: Files = {
  'bridge/contract.ts': 'export type Message = { id: number }\n',
  'sdk/client.ts': "import type { Message } from '../bridge/contract.ts'\nexport const send = (message: Message) => message.id\n",
  'host-sdk/kit.ts': "import type { Message } from '../bridge/contract.ts'\nexport const post = (message: Message) => message\n",
  'widget/App.tsx': "import { send } from '../sdk/client.ts'\nexport const App = () => <p>{send({ id: 1 })}</p>\n",
  'widget/wallet.fixture.ts': "import { send } from '../sdk/client.ts'\nexport const wallet = () => send({ id: 2 })\n",
  'widget/App.test.tsx': "import { App } from './App.tsx'\nimport { wallet } from './wallet.fixture.ts'\nexport const both = [App, wallet]\n",
  'sandbox/http/body.ts': 'export const readBody = (text: string) => JSON.parse(text)\n',
  'sandbox/services/auth.ts': "import { readBody } from '../http/body.ts'\nexport const login = (text: string) => readBody(text)\n",
  'e2e/fixtures/test-wallet.ts': '// Test-support names are free in the browser suites.\nexport const seed = 1\n',
  'README.md': 'How it fits together: ARCHITECTURE.md and sandbox/README.md.\n',
}

const cases: { rule: string; where: string; files: Files }[] = [
  {
    rule: 'no-circular',
    where: 'widget/a.tsx',
    // Types only, one way a type import and the other a type re-export, one side a .tsx file: still a circle.
    files: {
      'widget/a.tsx': "export type { B } from './b.ts'\nexport type A = { n: number }\nexport const View = () => <i />\n",
      'widget/b.ts': "import type { A } from './a.tsx'\nexport type B = { a?: A }\n",
    },
  },
  { rule: 'sdk-bridge-stand-alone', where: 'bridge/render.ts', files: { 'bridge/render.ts': "export { App } from '../widget/App.tsx'\n" } },
  {
    rule: 'sdk-bridge-stand-alone',
    where: 'sdk/ports.ts',
    files: { 'sdk/ports.ts': "import { login } from '../sandbox/services/auth.ts'\nexport const x = login\n" },
  },
  { rule: 'host-not-frame', where: 'host-sdk/frame.ts', files: { 'host-sdk/frame.ts': "import { App } from '../widget/App.tsx'\nexport const frame = App\n" } },
  { rule: 'frame-not-host', where: 'widget/host.ts', files: { 'widget/host.ts': "import { post } from '../host-sdk/kit.ts'\nexport const host = post\n" } },
  {
    rule: 'sandbox-layers',
    where: 'sandbox/http/guard.ts',
    files: { 'sandbox/http/guard.ts': "import { login } from '../services/auth.ts'\nexport const guard = login\n" },
  },
  {
    rule: 'no-fixture-in-production',
    where: 'widget/main.tsx',
    files: { 'widget/main.tsx': "import { wallet } from './wallet.fixture.ts'\nexport const Main = () => <b>{wallet()}</b>\n" },
  },
  { rule: 'test-support-naming', where: 'widget/test-wallet.ts', files: { 'widget/test-wallet.ts': 'export const seed = 1\n' } },
  { rule: 'test-support-naming', where: 'sdk/test/setup.ts', files: { 'sdk/test/setup.ts': 'export const seed = 1\n' } },
  {
    rule: 'no-lacked-doc-citation',
    where: 'sdk/chain.ts:2',
    files: { 'sdk/chain.ts': `export const local = 31337\n// The local chain comes first (${lacked('SPEC')} section 2).\n` },
  },
  { rule: 'no-lacked-doc-citation', where: 'docs/wire.md:3', files: { 'docs/wire.md': `# Wire\n\nAs ${lacked('PROTOCOL')} says.\n` } },
]

const trees: string[] = []
afterAll(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true })
})

function tree(files: Files, base: Files = clean): string {
  const root = mkdtempSync(join(tmpdir(), 'layout-'))
  trees.push(root)
  execFileSync('git', ['init', '-q'], { cwd: root, stdio: 'ignore' })
  for (const [path, text] of Object.entries({ ...base, ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

test('a tree that keeps every rule passes (tests import fixtures, e2e/ keeps its test-* names, docs cite docs it holds)', () => {
  expect(checkLayout(tree({}))).toEqual([])
})

test.each(cases)('$rule: $where is caught, and only it', ({ rule, where, files }) => {
  const violations = checkLayout(tree(files))
  expect(violations.map((violation) => [violation.rule, violation.where])).toEqual([[rule, where]])
})

test('the circle is named once, by its modules in order', () => {
  const [violation] = checkLayout(tree(cases[0]!.files))
  expect(violation?.message).toBe('import circle: widget/a.tsx → widget/b.ts → widget/a.tsx')
})

test('a tree whose TypeScript modules seem to import nothing is an error, not a pass (as when no parser reads .ts)', () => {
  expect(() => checkLayout(tree({ 'widget/a.ts': "import { b } from './b.ts'\nexport const a = b\n" }, {}))).not.toThrow()
  expect(() => checkLayout(tree({ 'widget/a.ts': 'export const a = 1\n' }, {}))).toThrow(/read no import from a TypeScript module/)
})

test('a file git ignores is not checked', () => {
  expect(checkLayout(tree({ '.gitignore': 'scratch/\n', 'scratch/test-notes.ts': `// ${lacked('DESIGN')}\n` }))).toEqual([])
})

test('the command prints each violation and exits with 1; a clean tree exits with 0', () => {
  const script = fileURLToPath(new URL('check-layout.ts', import.meta.url))
  const run = (root: string) => spawnSync('npx', ['tsx', script, root], { encoding: 'utf8' })
  const failing = run(tree({ ...cases[5]!.files, ...cases[7]!.files }))
  expect(failing.status).toBe(1)
  expect(failing.stdout).toContain('sandbox-layers  sandbox/http/guard.ts  imports sandbox/services/auth.ts.')
  expect(failing.stdout).toContain('test-support-naming  widget/test-wallet.ts')
  expect(failing.stdout).toMatch(/Layout check: 2 violations \(sandbox-layers 1, test-support-naming 1; /)
  const passing = run(tree({}))
  expect(passing.status).toBe(0)
  expect(passing.stdout).toMatch(/^Layout check: no violation \(/)
})
