// The transport contract (bridge/transport.contract.fixture.ts) over the frame's end of the bridge to
// the host page: real Penpal 7 on both ends, joined by a MessageChannel (PortMessenger), the bridge's
// real checks and `serve` on the frame's side.
import { connect, PortMessenger } from 'penpal'
import { hostChecks, serve, type WidgetMethods } from '../bridge/index.ts'
import { describeTransportContract, type TransportPair } from '../bridge/transport.contract.fixture.ts'
import { type HostCall, type HostNotice, hostTransport } from './host-transport.fixture.ts'

const A = '0x00000000000000000000000000000000000000A1'

async function bridgePair(): Promise<TransportPair<HostNotice, HostCall>> {
  const { port1, port2 } = new MessageChannel()
  const local = hostTransport(new PortMessenger({ port: port1 }))
  const received: HostNotice[] = []
  const note =
    <K extends HostNotice['name']>(name: K) =>
    (...args: unknown[]) => {
      received.push({ name, args } as HostNotice)
      return null
    }
  const host = connect<WidgetMethods>({
    messenger: new PortMessenger({ port: port2 }),
    methods: serve(hostChecks, { setVisible: note('setVisible'), emit: note('emit'), openUrl: note('openUrl'), connectExternal: () => null }),
  })
  const remote = await host.promise
  const call = (n: number): HostCall => ({ name: 'request', args: [{ method: 'eth_getBalance', params: [A, `0x${n.toString(16)}`] }] })
  return {
    local,
    async send(n) {
      const { args } = call(n) as Extract<HostCall, { name: 'request' }>
      await remote.request(...args)
    },
    expected: call,
    async sendRaw(value) {
      // A call by any name with any arguments, as a hostile page can make one; or a bare value on the port.
      if (typeof value === 'object' && value !== null && 'name' in value) {
        const { name, args } = value as { name: string; args: unknown[] }
        // The frame answers it (an error, or Penpal's own for a name it does not serve); it is not read.
        await (remote as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!(...args).catch(() => {})
      } else port2.postMessage(value)
    },
    received: () => received,
    outgoing: (n) => (n % 2 ? { name: 'emit', args: ['chainChanged', `0x${n.toString(16)}`] } : { name: 'setVisible', args: [n % 4 === 0] }),
    end: async () => host.destroy(),
    dispose: async () => host.destroy(),
  }
}

describeTransportContract('host page bridge (the frame end, Penpal)', bridgePair, {
  malformed: [
    'junk',
    { namespace: 'penpal', type: 'CALL', id: 'x', methodPath: ['request'], args: [] },
    { name: 'nope', args: [] },
    { name: 'toString', args: [] },
    { name: 'request', args: [] },
    { name: 'request', args: ['eth_chainId'] },
    { name: 'request', args: [{ method: 42 }] },
    { name: 'open', args: ['nowhere'] },
    { name: 'close', args: [1] },
    { name: 'setWallets', args: [Array.from({ length: 51 }, (_, i) => ({ id: `w${i}`, name: 'W', icon: '' }))] },
  ],
  settleMs: 30,
})
