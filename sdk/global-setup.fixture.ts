import type { TestProject } from 'vitest/node'
import { startRecorder } from './recorder-server.fixture.ts'

/** Browser runs: one recording server in Node for the whole run; tests reach it by URL. */
export default async function setup(project: TestProject) {
  const server = await startRecorder()
  project.provide('recorderUrl', server.url)
  return () => server.close()
}
