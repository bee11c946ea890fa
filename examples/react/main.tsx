// The React wrapper: one provider at the root, a hook and a button anywhere below it.
import { StrictMode, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { ConnectButton, useWalletKit, WalletKitProvider } from 'wallet-kit/react'
import '../demo/demo.css'

function Account() {
  const { address, chainId, status, balance, provider, disconnect } = useWalletKit()
  const [signature, setSignature] = useState<string>()
  const sign = async () => {
    setSignature(undefined)
    setSignature((await provider!.request({ method: 'personal_sign', params: ['0x6869', address!] })) as string)
  }
  return (
    <section className="card">
      <div className="row">
        <ConnectButton />
        {status === 'connected' && (
          <>
            <button type="button" onClick={sign}>
              Sign message
            </button>
            <button type="button" onClick={() => void disconnect()}>
              Disconnect
            </button>
          </>
        )}
      </div>
      <dl>
        <dt>Status</dt>
        <dd data-testid="status">{status}</dd>
        <dt>Account</dt>
        <dd data-testid="address">{address ?? '—'}</dd>
        <dt>Chain</dt>
        <dd data-testid="chain">{chainId ?? '—'}</dd>
        <dt>Balance</dt>
        <dd data-testid="balance">{balance ?? '—'}</dd>
        <dt>Signature</dt>
        <dd data-testid="signature">{signature ?? '—'}</dd>
      </dl>
    </section>
  )
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <WalletKitProvider options={{ appId: 'demo' }}>
      <main className="demo">
        <h1>React</h1>
        <p className="lead">WalletKitProvider, useWalletKit() and ConnectButton from wallet-kit/react.</p>
        <Account />
      </main>
    </WalletKitProvider>
  </StrictMode>,
)
