/**
 * One end of a message channel between two parts of the kit. The frame has three: with the host
 * page (Penpal over postMessage), with its secure window (the popup channel on the provider's
 * server) and with a WalletConnect wallet (the relay). Each end writes `Out` and reads `In`, and
 * every channel keeps the same promises, checked by one contract suite
 * (bridge/transport.contract.fixture.ts) run over each:
 *
 * - each message of the other side is delivered once, in the order it was written;
 * - what is not an `In` (wrong shape, wrong type, over the channel's size limit) is dropped, never
 *   thrown at the reader, and what follows still arrives;
 * - after `stop` (what `listen` returns) nothing more is delivered to those handlers;
 * - `ended` is called once when the channel is over: the other side is gone (closed, destroyed,
 *   ended the session) or the channel outlived its lifetime. Nothing is delivered after it;
 * - once ended, `post` rejects: nobody is left to read it.
 */
export type Transport<Out, In> = {
  /** Writes one message; resolves once the channel took it, rejects when it refuses it or has ended. */
  post(message: Out): Promise<void>
  /** Reads the other side's messages until the returned function is called. */
  listen(handlers: TransportHandlers<In>): () => void
}

export type TransportHandlers<In> = {
  /** Each well-formed message of the other side, once, in order. */
  message(message: In): void
  /** Once, and reading stops: the other side is gone or the channel is over. */
  ended?(): void
}
