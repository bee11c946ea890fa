import type { ExternalConnection, HostEvent, OpenTarget, Result } from '../bridge/index.ts'

/** What the frame may ask of the host page (the bridge's HostMethods, as the frame calls them). */
export type HostPort = {
  setVisible(visible: boolean): void
  emit(event: HostEvent, payload: unknown): void
  connectExternal(walletId: string): Promise<Result<ExternalConnection>>
  openUrl(url: string, target: OpenTarget): void
}
