import { computed, onMounted, reactive, type ShallowRef } from 'vue'
import type { EIP1193Provider } from 'wallet-kit'
import { message } from '../shared/example.ts'

/** <wallet-kit> as a page sees it: an element whose `.provider` is the kit's EIP-1193 provider. */
export type WalletKitElement = HTMLElement & { readonly provider: EIP1193Provider }

/** The demo app's two chains (the sandbox's; the kit offers the app's when a page names none): Switch chain moves to the other one. */
const chains = [31337, 31338] as const

const hex = (text: string) => `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`

const detailOf = (event: Event) => (event as CustomEvent<unknown>).detail

/**
 * The page's wallet state, kept from the element's DOM events (`connect`, `accountschanged`,
 * `chainchanged`, `disconnect`); the handlers are bound in the template with `@connect` and so on.
 * Requests go through the element's `.provider`.
 */
export function useWalletKitElement(element: Readonly<ShallowRef<WalletKitElement | null>>) {
  const state = reactive({
    address: undefined as string | undefined,
    chainId: undefined as number | undefined,
    signature: undefined as string | undefined,
    error: '',
    pending: false,
    events: [] as string[],
  })
  let heard = false
  const connected = computed(() => state.address !== undefined)
  const provider = () => element.value!.provider

  const log = (event: Event, text: string) => {
    heard = true
    state.events.push(`${event.type} ${text}`)
  }
  const setAccount = (address: string | undefined) => {
    if (address !== state.address) state.signature = undefined
    state.address = address
  }
  const on = {
    connect(event: Event) {
      const detail = detailOf(event) as { chainId: string }
      log(event, JSON.stringify(detail))
      state.chainId = Number(detail.chainId)
    },
    accountsChanged(event: Event) {
      const accounts = detailOf(event) as string[]
      log(event, JSON.stringify(accounts))
      setAccount(accounts[0])
    },
    chainChanged(event: Event) {
      const chainId = detailOf(event) as string
      log(event, JSON.stringify(chainId))
      state.chainId = Number(chainId)
    },
    disconnect(event: Event) {
      const { code, message: text } = detailOf(event) as { code: number; message: string }
      log(event, `${code} ${text}`)
      setAccount(undefined)
      state.chainId = undefined
    },
  }

  /** Shows a request's error on the page, with its EIP-1193 code. */
  const show = (err: unknown) => {
    const { message: text, code } = err as { message?: string; code?: unknown }
    state.error = `${text ?? String(err)}${code === undefined ? '' : ` (code ${String(code)})`}`
  }

  // A session restored on load is no change, so no event tells of it: ask once. An event that
  // came first is newer than this answer.
  onMounted(async () => {
    try {
      const [address] = (await provider().request({ method: 'eth_accounts' })) as string[]
      if (!address || heard) return
      const chainId = (await provider().request({ method: 'eth_chainId' })) as string
      if (heard) return
      setAccount(address)
      state.chainId = Number(chainId)
    } catch (err) {
      show(err)
    }
  })

  /** Runs one request at a time; its error (an EIP-1193 code included) is shown on the page. */
  const run = (fn: () => Promise<void>) => async () => {
    if (state.pending) return
    state.pending = true
    state.error = ''
    try {
      await fn()
    } catch (err) {
      show(err)
    } finally {
      state.pending = false
    }
  }

  const sign = run(async () => {
    state.signature = undefined
    state.signature = (await provider().request({ method: 'personal_sign', params: [hex(message), state.address!] })) as string
  })

  const switchChain = run(async () => {
    const next = state.chainId === chains[0] ? chains[1] : chains[0]
    // The new chain arrives as a chainchanged event.
    await provider().request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${next.toString(16)}` }] })
  })

  return { state, connected, on, sign, switchChain }
}
