// The frame URL is written once, in bridge/frame-url.ts, for the host and the frame.
export { readFrameUrl as readParams, type FrameParams } from '../bridge/frame-url.ts'
