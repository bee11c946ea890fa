// The transport contract (bridge/transport.contract.fixture.ts) over the frame's end of a
// WalletConnect session (session-transport.ts). The wallet is a scripted sign-client, as the other
// tests here play it: it emits session events and session_delete on the session's topic, and
// answers each request at once.
import { describeTransportContract, type TransportPair } from '../../bridge/transport.contract.fixture.ts'
import { sessionTransport, type WalletEvent, type WalletRequest } from './session-transport.ts'

const topic = 'f'.repeat(64)
const A = '0x00000000000000000000000000000000000000A1'

async function sessionPair(): Promise<TransportPair<WalletRequest, WalletEvent>> {
  const listeners = new Map<string, Set<(arg: never) => void>>()
  const emit = (name: string, arg: unknown) => {
    for (const listener of [...(listeners.get(name) ?? [])]) listener(arg as never)
  }
  const asked: WalletRequest[] = []
  const client = {
    on: (name: string, listener: (arg: never) => void) => void listeners.set(name, (listeners.get(name) ?? new Set()).add(listener)),
    off: (name: string, listener: (arg: never) => void) => void listeners.get(name)?.delete(listener),
  }
  const request = async (_topic: string, chainId: number, method: string, params: unknown[]) => {
    asked.push({ chainId, method, params })
    return '0x'
  }
  const event = (n: number): WalletEvent => (n % 2 ? { name: 'chainChanged', data: n } : { name: 'accountsChanged', data: [`eip155:${n}:${A}`] })
  return {
    local: sessionTransport({ client, request } as unknown as Parameters<typeof sessionTransport>[0], topic),
    send: async (n) => emit('session_event', { topic, params: { event: event(n), chainId: 'eip155:31337' } }),
    expected: event,
    sendRaw: async (value) => emit('session_event', value),
    received: () => asked,
    outgoing: (n) => ({ chainId: 31337, method: 'personal_sign', params: [`0x${n.toString(16).padStart(2, '0')}`, A] }),
    end: async () => emit('session_delete', { id: 1, topic }),
    dispose: async () => listeners.clear(),
  }
}

describeTransportContract('WalletConnect session (the frame end)', sessionPair, {
  malformed: [
    'x',
    null,
    [topic],
    { topic },
    { topic, params: null },
    { topic, params: { event: null } },
    { topic, params: { event: { name: 'accountsChanged', data: A } } },
    { topic, params: { event: { name: 'chainChanged' } } },
    { topic, params: { event: { name: 'session_ping', data: 1 } } },
    // Another session's event is not this one's.
    { topic: 'e'.repeat(64), params: { event: { name: 'chainChanged', data: 1 } } },
  ],
  settleMs: 20,
})
