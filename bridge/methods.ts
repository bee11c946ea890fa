import type { Result } from './errors.ts'

/** SPEC.md section 2: the modal types. */
export const views = ['connect', 'chain', 'profile', 'transaction_confirmation', 'need_permission'] as const
export type View = (typeof views)[number]

/** EIP-1193 provider events the widget forwards to the host page. */
export const hostEvents = ['connect', 'disconnect', 'chainChanged', 'accountsChanged', 'message'] as const
export type HostEvent = (typeof hostEvents)[number]

export type RpcRequest = { readonly method: string; readonly params?: readonly unknown[] | Record<string, unknown> }

export type Hello = { readonly protocol: number; readonly sdkVersion?: string }
export type Welcome = { readonly protocol: number }

/** What the widget (iframe, provider origin) exposes to the host page. */
export type WidgetMethods = {
  hello(hello: Hello): Promise<Result<Welcome>>
  request(request: RpcRequest): Promise<Result<unknown>>
  open(view: View): Promise<Result<null>>
  close(): Promise<Result<null>>
}

/** What the host page exposes to the widget. */
export type HostMethods = {
  setVisible(visible: boolean): Promise<Result<null>>
  emit(event: HostEvent, payload: unknown): Promise<Result<null>>
}

export type WidgetMethodName = keyof WidgetMethods
export type HostMethodName = keyof HostMethods
