// playwright-core exports its bundled helpers as `playwright-core/lib/utilsBundle` (package.json
// "exports"), without types. The harness uses one of them: `ws`, the WebSocket client its own
// Firefox connection runs on (pipeline/browser/bidi.ts). Only what bidi.ts calls is declared.
declare module 'playwright-core/lib/utilsBundle' {
  interface BundledWebSocket {
    readonly readyState: number;
    send(data: string): void;
    close(): void;
    on(event: 'open' | 'close', listener: () => void): this;
    on(event: 'message', listener: (data: Buffer) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    once(event: 'open' | 'close', listener: () => void): this;
    once(event: 'error', listener: (error: Error) => void): this;
  }
  const bundle: { ws: { new (url: string, options?: { perMessageDeflate?: boolean; maxPayload?: number }): BundledWebSocket; readonly OPEN: number } };
  export default bundle;
}
