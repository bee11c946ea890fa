import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'

/** One function V8 reported with a call count, as offsets into its script's source (UTF-16 units). */
export type CoveredFunction = { start: number; end: number; count: number }

/** What one browser script did in the measured window: the functions called, and whether it was loaded then. */
export type ScriptRun = { file: string; source: string; called: CoveredFunction[]; all: CoveredFunction[]; loadedInWindow: boolean }

const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/**
 * A source map's `mappings` as, per generated line, pairs [generated column, source index] in order
 * (source index -1 for a segment that maps to no source). Only what attribution to a file needs.
 */
export function decodeMappings(mappings: string): number[][] {
  const lines: number[][] = [[]]
  let source = 0
  let field = 0
  let value = 0
  let shift = 0
  let segment: number[] = []
  let column = 0
  const flush = () => {
    if (segment.length === 0) return
    column += segment[0]!
    if (segment.length > 1) source += segment[1]!
    lines[lines.length - 1]!.push(column, segment.length > 1 ? source : -1)
    segment = []
    field = 0
  }
  for (const char of mappings) {
    if (char === ';' || char === ',') {
      flush()
      if (char === ';') {
        lines.push([])
        column = 0
      }
      continue
    }
    const digit = base64.indexOf(char)
    if (digit < 0) throw new Error(`Bad character in source map mappings: ${char}`)
    value += (digit & 31) << shift
    if (digit & 32) {
      shift += 5
      continue
    }
    segment[field++] = value & 1 ? -(value >>> 1) : value >>> 1
    value = 0
    shift = 0
  }
  flush()
  return lines
}

/** A generated script's map, read from the `.map` file beside it, with sources as absolute paths. */
export type LoadedMap = { sources: string[]; lines: number[][]; lineStarts: number[] }

export function loadMap(file: string, source: string): LoadedMap {
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; sourceRoot?: string; mappings: string }
  const dir = resolve(dirname(file), map.sourceRoot ?? '')
  const lineStarts = [0]
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) lineStarts.push(i + 1)
  return { sources: map.sources.map((s) => resolve(dir, s)), lines: decodeMappings(map.mappings), lineStarts }
}

/** The source file the code at `offset` comes from: the last segment at or before it (earlier lines included). */
export function sourceAt(map: LoadedMap, offset: number): string | undefined {
  let line = upperBound(map.lineStarts, offset) - 1
  let column = offset - map.lineStarts[line]!
  for (; line >= 0; line--, column = Number.POSITIVE_INFINITY) {
    const segments = map.lines[line] ?? []
    for (let i = segments.length - 2; i >= 0; i -= 2) {
      if (segments[i]! > column) continue
      const index = segments[i + 1]!
      return index < 0 ? undefined : map.sources[index]
    }
  }
  return undefined
}

/**
 * Whether any segment of the map lies in [start, end): a function whose whole range maps to no
 * source is the bundler's own code (Vite's preload helper, say), which `sourceAt` would otherwise
 * charge to whatever file precedes it in the chunk.
 */
export function mapsAny(map: LoadedMap, start: number, end: number): boolean {
  const first = upperBound(map.lineStarts, start) - 1
  for (let line = first; line < map.lines.length && map.lineStarts[line]! < end; line++) {
    const segments = map.lines[line] ?? []
    for (let i = 0; i < segments.length; i += 2) {
      const offset = map.lineStarts[line]! + segments[i]!
      if (offset >= start && offset < end && segments[i + 1]! >= 0) return true
    }
  }
  return false
}

const upperBound = (sorted: number[], value: number) => {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid]! <= value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The files a script ran code of: `called`, where a function it reported with a count > 0 starts;
 * `evaluated`, when the script itself was loaded in the window, the files whose module body (code
 * outside every function) it holds, which ran once as the chunk was evaluated.
 */
export function attribute(run: ScriptRun, map: LoadedMap): { called: Set<string>; evaluated: Set<string> } {
  const called = new Set<string>()
  for (const fn of run.called) {
    if (!mapsAny(map, fn.start, fn.end)) continue
    const file = sourceAt(map, fn.start)
    if (file) called.add(file)
  }
  const evaluated = new Set<string>()
  if (run.loadedInWindow) {
    const inner = run.all.filter((fn) => !(fn.start === 0 && fn.end >= run.source.length)).sort((a, b) => a.start - b.start)
    let next = 0
    let reach = -1
    map.lines.forEach((segments, line) => {
      for (let i = 0; i < segments.length; i += 2) {
        const offset = map.lineStarts[line]! + segments[i]!
        while (next < inner.length && inner[next]!.start <= offset) reach = Math.max(reach, inner[next++]!.end)
        if (offset < reach || segments[i + 1]! < 0) continue
        evaluated.add(map.sources[segments[i + 1]!]!)
      }
    })
  }
  return { called, evaluated }
}

/** Our own source files among `files`, relative to `repo` (dependencies and bundler helpers left out). */
export function ownFiles(files: Iterable<string>, repo: string): string[] {
  const out = new Set<string>()
  for (const file of files) {
    const path = relative(repo, file.split('?')[0]!)
    if (path.startsWith('..') || path.startsWith('/') || path.includes('node_modules') || path.includes('\0')) continue
    out.add(path)
  }
  return [...out].sort()
}

/** Files grouped by their top folder ("room"): bridge, host-sdk, widget, sdk, sandbox… */
export function byRoom(files: readonly string[]): Record<string, string[]> {
  const rooms: Record<string, string[]> = {}
  for (const file of files) {
    const room = file.includes('/') ? file.slice(0, file.indexOf('/')) : '.'
    rooms[room] = [...(rooms[room] ?? []), file]
  }
  return rooms
}
