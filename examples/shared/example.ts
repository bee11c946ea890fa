import '../demo/demo.css'

/**
 * The frame every library example shares: Connect, Sign message, and what came back. Each page
 * only says how its library connects and signs; the browser tests read the data-testid fields.
 */
export type Library = {
  connect(): Promise<{ address: string; chainId: number }>
  /** Signs `message` and checks the signature with the library's own verification. */
  sign(message: string): Promise<{ signature: string; verified: boolean }>
}

export const message = 'Hello from wallet-kit'

export function mountExample(title: string, library: Library): void {
  document.title = `${title} · wallet-kit`
  // Into its own element: the kit's frame is in <body> too.
  const root = document.createElement('div')
  document.body.prepend(root)
  root.innerHTML = `
    <main class="demo">
      <h1>${title}</h1>
      <p class="lead">This page uses the wallet kit through ${title}, unmodified.</p>
      <section class="card">
        <div class="row">
          <button id="connect" type="button">Connect</button>
          <button id="sign" type="button">Sign message</button>
        </div>
        <dl>
          <dt>Account</dt><dd data-testid="address">—</dd>
          <dt>Chain</dt><dd data-testid="chain">—</dd>
          <dt>Signature</dt><dd data-testid="signature">—</dd>
          <dt>Verified</dt><dd data-testid="verified">—</dd>
        </dl>
        <p class="error" role="alert" data-testid="error"></p>
      </section>
    </main>`
  const field = (id: string) => document.querySelector(`[data-testid=${id}]`)!
  const run = (fn: () => Promise<void>) => async () => {
    field('error').textContent = ''
    try {
      await fn()
    } catch (err) {
      const { message: text, code } = err as { message?: string; code?: unknown }
      field('error').textContent = `${text ?? String(err)}${code === undefined ? '' : ` (code ${String(code)})`}`
    }
  }
  document.getElementById('connect')!.addEventListener(
    'click',
    run(async () => {
      const { address, chainId } = await library.connect()
      field('address').textContent = address
      field('chain').textContent = String(chainId)
    }),
  )
  document.getElementById('sign')!.addEventListener(
    'click',
    run(async () => {
      const { signature, verified } = await library.sign(message)
      field('signature').textContent = signature
      field('verified').textContent = String(verified)
    }),
  )
}
