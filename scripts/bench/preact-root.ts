// Size benchmark only: react-dom/client's createRoot over Preact's render.
import { render, type ComponentChild } from 'preact'
export const createRoot = (container: Element | ShadowRoot) => ({
  render: (node: ComponentChild) => render(node, container as Element),
  unmount: () => render(null, container as Element),
})
