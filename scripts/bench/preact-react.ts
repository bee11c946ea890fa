// Size benchmark only: Preact core + hooks behind the slice of React's API the element uses.
import { Fragment, h } from 'preact'
export * from 'preact/hooks'
export { Fragment, h as createElement }
export default { createElement: h, Fragment }
