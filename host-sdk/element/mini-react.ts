/**
 * The slice of React that <wallet-kit> uses, for kit.js only (the build aliases `react`,
 * `react/jsx-runtime` and `react-dom/client` to this file for the element and
 * @r2wc/react-to-web-component). React itself is ~60 KB gzipped and Preact with its hooks ~5.5 KB;
 * this is about 1.2 KB and the whole kit.js budget is 12 KB (numbers in README.md).
 *
 * Supported: function components, useState, useEffect, useRef, fragments, keyless children
 * patched in place by position (so focus and listeners survive a re-render), `on*` listeners,
 * attributes (`className` is `class`). Not supported: keys, context, refs to elements, SVG, style objects.
 */
type Props = Record<string, unknown> & { children?: unknown }
type Component = (props: Props) => unknown
type Element = { type: string | Component | symbol; props: Props }
type Out = string | { tag: string; props: Props; children: Out[] }
type Hook = { value?: unknown; deps?: readonly unknown[]; cleanup?: (() => void) | undefined; set?: (next: unknown) => void }
type Instance = { type: Component; hooks: Hook[] }
type Root = { effects: (() => void)[]; schedule(): void }
type Dom = globalThis.Element & { _props?: Props; _on?: Record<string, unknown> }

export const Fragment = Symbol.for('react.fragment')

export const jsx = (type: Element['type'], props: Props): Element => ({ type, props })
export const jsxs = jsx

export function createElement(type: Element['type'], props: Props | null, ...children: unknown[]): Element {
  return { type, props: { ...props, ...(children.length ? { children: children.length > 1 ? children : children[0] } : {}) } }
}

let rendering: { instance: Instance; index: number; root: Root } | undefined

function slot(): [Hook, Root] {
  if (!rendering) throw new Error('Hooks can only be called inside a component')
  const { hooks } = rendering.instance
  const index = rendering.index++
  hooks[index] ??= {}
  return [hooks[index], rendering.root]
}

export function useState<T>(initial: T | (() => T)): [T, (next: T | ((previous: T) => T)) => void] {
  const [hook, root] = slot()
  if (!hook.set) {
    hook.value = typeof initial === 'function' ? (initial as () => T)() : initial
    hook.set = (next: unknown) => {
      const value = typeof next === 'function' ? (next as (p: unknown) => unknown)(hook.value) : next
      if (!Object.is(value, hook.value)) {
        hook.value = value
        root.schedule()
      }
    }
  }
  return [hook.value as T, hook.set]
}

export function useEffect(effect: () => (() => void) | undefined, deps?: readonly unknown[]): void {
  const [hook, root] = slot()
  if (deps && hook.deps && deps.length === hook.deps.length && deps.every((d, i) => Object.is(d, hook.deps![i]))) return
  hook.deps = deps ?? []
  root.effects.push(() => {
    hook.cleanup?.()
    hook.cleanup = effect()
  })
}

export function useRef<T>(value: T): { current: T } {
  return useState(() => ({ current: value }))[0]
}

function listener(this: Dom, event: Event) {
  ;(this._on?.[event.type] as ((e: Event) => void) | undefined)?.(event)
}

function setProps(el: Dom, props: Props): void {
  const previous = el._props ?? {}
  for (const key of new Set([...Object.keys(previous), ...Object.keys(props)])) {
    const value = props[key]
    if (key === 'children' || key === 'key' || Object.is(value, previous[key])) continue
    if (/^on[A-Z]/.test(key)) {
      el._on ??= {}
      const type = key.slice(2).toLowerCase()
      if (!(type in el._on)) el.addEventListener(type, listener as EventListener)
      el._on[type] = value
    } else {
      const name = key === 'className' ? 'class' : key === 'htmlFor' ? 'for' : key
      if (value == null || value === false) el.removeAttribute(name)
      else el.setAttribute(name, value === true ? '' : String(value))
    }
  }
  el._props = props
}

/** Makes `parent`'s children match `outs`, reusing the node already at each position when it fits. */
function patch(parent: Node, outs: readonly Out[]): void {
  outs.forEach((out, i) => {
    const node = parent.childNodes[i]
    const put = (fresh: Node) => (node ? parent.replaceChild(fresh, node) : parent.appendChild(fresh))
    if (typeof out === 'string') {
      if (node instanceof Text) {
        if (node.data !== out) node.data = out
      } else put(document.createTextNode(out))
      return
    }
    let el = node as Dom | undefined
    // Only an element has a localName (a Text node's is undefined).
    if (el?.localName !== out.tag) {
      el = document.createElement(out.tag) as Dom
      put(el)
    }
    setProps(el, out.props)
    patch(el, out.children)
  })
  while (parent.childNodes.length > outs.length) parent.lastChild!.remove()
}

export function createRoot(container: Node) {
  let tree: unknown = null
  let instances = new Map<string, Instance>()
  let scheduled = false
  const root: Root = {
    effects: [],
    schedule() {
      if (scheduled) return
      scheduled = true
      queueMicrotask(() => {
        scheduled = false
        draw()
      })
    },
  }

  function expand(node: unknown, path: string, seen: Map<string, Instance>): Out[] {
    if (node == null || typeof node === 'boolean') return []
    if (Array.isArray(node)) return node.flatMap((child, i) => expand(child, `${path}.${i}`, seen))
    if (typeof node !== 'object') return [String(node)]
    const { type, props } = node as Element
    if (typeof type === 'symbol') return expand(props.children, path, seen)
    if (typeof type === 'string') return [{ tag: type, props, children: expand(props.children, `${path}>`, seen) }]
    const old = instances.get(path)
    const instance = old?.type === type ? old : { type, hooks: [] }
    seen.set(path, instance)
    const outer = rendering
    rendering = { instance, index: 0, root }
    try {
      return expand(type(props), `${path}/`, seen)
    } finally {
      rendering = outer
    }
  }

  function draw(): void {
    const seen = new Map<string, Instance>()
    patch(container, expand(tree, '', seen))
    for (const [path, instance] of instances) if (seen.get(path) !== instance) for (const hook of instance.hooks) hook.cleanup?.()
    instances = seen
    for (const run of root.effects.splice(0)) run()
  }

  return {
    render(element: unknown) {
      tree = element
      draw()
    },
    unmount() {
      tree = null
      draw()
    },
  }
}

export default { createElement, Fragment, useState, useEffect, useRef }
