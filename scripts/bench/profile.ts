// Reads a V8 .cpuprofile (node --cpu-prof) and prints where the time went: self time by function and
// inclusive time by function, in percent of the sampled time.
//   npx tsx scripts/bench/profile.ts <file.cpuprofile> [--top 30] [--match text] [--last seconds]
import { readFileSync } from 'node:fs'

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; endTime: number }

/** `lastSeconds`: only the samples of the profile's last seconds (the load phase, not the start). */
export function summarize(profile: Profile, lastSeconds = Number.POSITIVE_INFINITY) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const label = (node: Node) => {
    const file = node.callFrame.url.replace(/^.*\/(node_modules\/)?/, '')
    return `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`
  }
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let total = 0
  const times: number[] = []
  profile.timeDeltas.reduce((at, dt, index) => (times[index] = at + dt), profile.endTime - profile.timeDeltas.reduce((a, b) => a + b, 0))
  const from = profile.endTime - lastSeconds * 1e6
  profile.samples.forEach((id, index) => {
    if ((times[index] ?? 0) < from) return
    const dt = profile.timeDeltas[index] ?? 0
    total += dt
    const node = byId.get(id)
    if (!node) return
    self.set(label(node), (self.get(label(node)) ?? 0) + dt)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!)
      if (seen.has(name)) continue
      seen.add(name)
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt)
    }
  })
  return { total, self, inclusive }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  const top = Number(args[args.indexOf('--top') + 1] ?? 30) || 30
  const match = args.includes('--match') ? args[args.indexOf('--match') + 1] : undefined
  const last = args.includes('--last') ? Number(args[args.indexOf('--last') + 1]) : undefined
  const { total, self, inclusive } = summarize(JSON.parse(readFileSync(args[0]!, 'utf8')) as Profile, last)
  const print = (title: string, map: Map<string, number>) => {
    console.log(`${title} (of ${(total / 1e6).toFixed(2)} s sampled)`)
    for (const [name, us] of [...map]
      .filter(([name]) => !match || name.includes(match))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top))
      console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`)
  }
  print('self time', self)
  print('inclusive time', inclusive)
}
