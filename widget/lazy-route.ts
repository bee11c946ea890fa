import { Component, createElement, lazy, type ComponentType, type ReactNode } from 'react'
import { lazyModule } from './lazy-module.ts'

/** Routes whose load failed, each with the way to start it afresh (RouteError asks, on its reset). */
const failed = new Set<() => void>()

/**
 * A lazily loaded component whose module is preloaded with the others. React.lazy keeps a failed
 * load for good; this one is started afresh when RouteError resets (another page, the modal
 * reopened), so the page loads once the network is back. Never on its own: React renders a failed
 * subtree again at once, and a fresh load there would retry without end.
 */
export function lazyRoute<T, P extends object = object>(load: () => Promise<T>, pick: (module: T) => ComponentType<P>): ComponentType<P> {
  const module = lazyModule(load)
  const renew = () => (current = make())
  const make = () =>
    lazy(() =>
      module.get().then(
        (m) => ({ default: pick(m) }),
        (error: unknown) => {
          failed.add(renew)
          throw error
        },
      ),
    )
  let current = make()
  return (props: P) => createElement(current as ComponentType<P>, props)
}

/**
 * Catches a page that could not load (the network went down before it was fetched): `fallback`
 * shows instead of the whole widget unmounting; a new `resetKey` (another page, the modal
 * reopened) tries again.
 */
export class RouteError extends Component<{ resetKey: string; fallback: ReactNode; children: ReactNode }, { failed: string | null }> {
  override state = { failed: null as string | null }
  static getDerivedStateFromError() {
    return { failed: '' }
  }
  override componentDidCatch(error: unknown) {
    console.error('wallet-kit: a page of the wallet could not load:', error)
    this.setState({ failed: this.props.resetKey })
  }
  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey === this.props.resetKey || this.state.failed === null) return
    for (const renew of failed) renew()
    failed.clear()
    this.setState({ failed: null })
  }
  override render() {
    return this.state.failed !== null ? this.props.fallback : this.props.children
  }
}
