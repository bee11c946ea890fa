import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { attribute, byRoom, decodeMappings, loadMap, ownFiles, sourceAt } from './path-map.ts'

describe('decodeMappings', () => {
  it('reads columns relative within a line and source indexes relative across lines, negatives and multi-digit values', () => {
    // "GAAG": column +3; "ACCA": next line, column 0, source +1; "CDAA": column +1, source -1; "gBAAA": column +16.
    expect(decodeMappings('AAAA,GAAG;ACCA,CDAA,gBAAA')).toEqual([
      [0, 0, 3, 0],
      [0, 1, 1, 0, 17, 0],
    ])
  })

  it('keeps a one-field segment as mapping to no source, and empty lines', () => {
    expect(decodeMappings('A;;ACAA')).toEqual([[0, -1], [], [0, 1]])
  })
})

const dir = mkdtempSync(join(tmpdir(), 'path-map-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A bundle of three lines, each from its own file: a.ts's function, b.ts's function, c.ts's module body. */
function bundle() {
  const source = 'function a() { return 1 }\nfunction b() { return 2 }\nconst c = a() + b()\n'
  const file = join(dir, 'out.js')
  writeFileSync(file, source)
  // Line 1 -> source 0, line 2 -> source 1, line 3 -> source 2 ("ACAA": same column, next source).
  writeFileSync(`${file}.map`, JSON.stringify({ version: 3, sources: ['src/a.ts', 'src/b.ts', 'src/c.ts'], mappings: 'AAAA;ACAA;ACAA' }))
  const fn = (line: number, count: number) => {
    const start = source.split('\n').slice(0, line).join('\n').length + (line ? 1 : 0)
    return { start, end: start + 25, count }
  }
  return { source, file, a: fn(0, 0), b: fn(1, 3), top: { start: 0, end: source.length, count: 1 } }
}

describe('sourceAt and attribute', () => {
  it('maps an offset to the file of the last segment at or before it, on earlier lines when its own has none', () => {
    const { source, file } = bundle()
    const map = loadMap(file, source)
    expect(sourceAt(map, 0)).toBe(join(dir, 'src/a.ts'))
    expect(sourceAt(map, source.indexOf('return 2'))).toBe(join(dir, 'src/b.ts'))
    expect(sourceAt(map, source.indexOf('a() + b()'))).toBe(join(dir, 'src/c.ts'))
    // The second line has no segment: its code belongs to the first line's last one.
    const gap = { ...map, lines: decodeMappings('AAAA;;ACAA') }
    expect(sourceAt(gap, source.indexOf('return 2'))).toBe(join(dir, 'src/a.ts'))
  })

  it('counts the file of each function called, and the module bodies only of a script loaded in the window', () => {
    const { source, file, a, b, top } = bundle()
    const map = loadMap(file, source)
    const run = { file, source, all: [top, a, b], called: [b], loadedInWindow: true }
    const files = attribute(run, map)
    expect([...files.called]).toEqual([join(dir, 'src/b.ts')])
    // a.ts and b.ts hold only functions: their code is inside function ranges, not module bodies.
    expect([...files.evaluated]).toEqual([join(dir, 'src/c.ts')])
    expect([...attribute({ ...run, loadedInWindow: false }, map).evaluated]).toEqual([])
  })
})

describe('code the bundler wrote', () => {
  it('a called function with no mapped segment in its range is charged to no file, not to the file before it', () => {
    // a.ts's function (not called), then a helper the bundler injected (no mappings on its line), called.
    const source = 'function a() { return 1 }\nfunction helper() { return 2 }\n'
    const file = join(dir, 'helper.js')
    writeFileSync(file, source)
    writeFileSync(`${file}.map`, JSON.stringify({ version: 3, sources: ['src/a.ts'], mappings: 'AAAA;' }))
    const map = loadMap(file, source)
    const helperStart = source.indexOf('function helper')
    const a = { start: 0, end: 25, count: 0 }
    const helper = { start: helperStart, end: helperStart + 31, count: 1 }
    const run = { file, source, all: [a, helper], called: [helper], loadedInWindow: false }
    expect([...attribute(run, map).called]).toEqual([])
    expect([...attribute({ ...run, called: [a, helper] }, map).called]).toEqual([join(dir, 'src/a.ts')])
    // Its offset alone still reads as the earlier line's file (sourceAt is unchanged).
    expect(sourceAt(map, helperStart)).toBe(join(dir, 'src/a.ts'))
  })
})

describe('ownFiles and byRoom', () => {
  it('keeps the repository files only, relative, and groups them by top folder', () => {
    const files = ownFiles(['/r/widget/main.ts', '/r/node_modules/react/index.js', '/elsewhere/x.ts', '/r/bridge/serve.ts', '/r/widget/main.ts'], '/r')
    expect(files).toEqual(['bridge/serve.ts', 'widget/main.ts'])
    expect(byRoom([...files, 'widget/rpc/index.ts'])).toEqual({ bridge: ['bridge/serve.ts'], widget: ['widget/main.ts', 'widget/rpc/index.ts'] })
  })
})
