// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest'
import React, { createRoot, Fragment, jsx, jsxs, useEffect, useRef, useState } from './mini-react.ts'

/** The renderer <wallet-kit> uses in kit.js: the slice of React that the element and r2wc need. */
const tick = () => new Promise((r) => setTimeout(r))

const Label = (props: Record<string, unknown>) => jsx('span', { className: 'label', children: props.text as string })
const A = () => jsx('i', { children: useState('A state')[0] })
const B = () => jsx('i', { children: useState('B state')[0] })

describe('mini-react', () => {
  test('renders function components, fragments, text and attributes (className → class, false drops)', () => {
    const host = document.createElement('div')
    createRoot(host).render(
      jsxs(Fragment, {
        children: [
          jsx('style', { children: 'b{}' }),
          jsx('b', { 'data-x': 1, hidden: false, disabled: true, children: [jsx(Label, { text: 'hi' }), ' ', 3, null, false] }),
        ],
      }),
    )
    expect(host.innerHTML).toBe('<style>b{}</style><b data-x="1" disabled=""><span class="label">hi</span> 3</b>')
  })

  test('state updates patch the same nodes, so focus and listeners survive', async () => {
    const host = document.createElement('div')
    document.body.append(host)
    let renders = 0
    // biome-ignore lint/correctness/noComponentHookFactories: counts this test's renders; one root renders it, in this test only
    function Counter() {
      const [n, setN] = useState(() => 0)
      renders++
      return jsx('button', { type: 'button', onClick: () => setN((x) => x + 1), children: n ? `clicked ${n}` : 'Connect' })
    }
    createRoot(host).render(React.createElement(Counter, null))
    const button = host.querySelector('button')!
    button.focus()
    button.click()
    button.click() // both clicks land in one re-render
    await tick()
    expect(host.querySelector('button')).toBe(button)
    expect(button.textContent).toBe('clicked 2')
    expect(document.activeElement).toBe(button)
    expect(renders).toBe(2)
    host.remove()
  })

  test('effects run after render, again when their deps change, and clean up on change and unmount', async () => {
    const host = document.createElement('div')
    const log: string[] = []
    let setKey: (k: string) => void = () => {}
    // biome-ignore lint/correctness/noComponentHookFactories: logs into this test's array; one root renders it, in this test only
    function Watcher() {
      const [key, set] = useState('a')
      const renders = useRef(0)
      renders.current++
      setKey = set
      useEffect(() => {
        log.push(`start ${key} after ${host.textContent}`)
        return () => log.push(`stop ${key}`)
      }, [key])
      return `${key}${renders.current}`
    }
    const root = createRoot(host)
    root.render(jsx(Watcher, {}))
    setKey('a')
    await tick()
    setKey('b')
    await tick()
    root.unmount()
    expect(log).toEqual(['start a after a1', 'stop a', 'start b after b2', 'stop b'])
    expect(host.innerHTML).toBe('')
  })

  test('a component replaced by another at the same place gets fresh state', async () => {
    const host = document.createElement('div')
    const root = createRoot(host)
    root.render(jsx(A, {}))
    root.render(jsx(B, {}))
    expect(host.textContent).toBe('B state')
  })

  test('hooks outside a component are an error', () => {
    expect(() => useState(0)).toThrow('Hooks can only be called inside a component')
  })
})
