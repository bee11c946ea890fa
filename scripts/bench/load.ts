// Helpers of the sandbox load benchmark (scripts/bench-sandbox.ts): the sandbox process's memory and
// CPU time from Linux /proc, and HTTP calls from a chosen loopback address.
import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'

/** The wallet API's envelope. */
export type Answer = { status: number; message: string; data: Record<string, string> | null }

/** Peak (VmHWM) and current (VmRSS) resident set size of a process from Linux /proc, in MiB. */
const procStatus = (pid: number, field: 'VmHWM' | 'VmRSS') => {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : Number.NaN
}
export const peakRss = (pid: number) => procStatus(pid, 'VmHWM')
export const currentRss = (pid: number) => procStatus(pid, 'VmRSS')
/** CPU time (user + system) a process has used, in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
export const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

// Per-IP rate limits (sandbox/http/rate-limit.ts) would stop a single address after 100 login codes;
// the whole of 127.0.0.0/8 is this machine, so each login comes from its own loopback address.
let loginCount = 0
export const nextLoopback = () => {
  const n = loginCount++
  return `127.${1 + ((n >> 16) & 0xff)}.${(n >> 8) & 0xff}.${n & 0xff || 1}`
}

/** A POST over a fresh connection from `localAddress` (node:http: fetch cannot choose its source address). */
export function postFrom(
  url: string,
  headers: Record<string, string>,
  localAddress: string,
  body: string,
  token?: string,
): Promise<{ status: number; json: Answer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        localAddress,
        family: 4,
        agent: false,
        headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer })
          } catch (error) {
            reject(error)
          }
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}
