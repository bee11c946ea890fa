// tsc reads no .vue file: a single-file component is typed as a component, nothing more. Its logic
// lives in ./wallet.ts, which the type check does read; the template is checked by the Vue
// compiler when the example is built.
declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent
  export default component
}
