// Minimal declarations for the embedded stack's servers, which ship no types.
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}

declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    allowMismatchedSignatures?: boolean;
    resetOnClose?: boolean;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** The object store its requests use (replaceable: the embedded stack's is S3FaithfulStore). */
    store: unknown;
    context: { store: unknown };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
