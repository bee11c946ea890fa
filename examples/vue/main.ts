// A Vue 3 app that uses <wallet-kit> as any other custom element. Vite's Vue plugin is told the
// tag is a custom element (compilerOptions.isCustomElement, scripts/examples-build.ts), so Vue
// renders it as it is instead of looking for a Vue component of that name.
import 'wallet-kit/element'
import { createApp } from 'vue'
import App from './App.vue'
import '../demo/demo.css'

createApp(App).mount('#app')
