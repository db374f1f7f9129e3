// stylis ships no type declarations; only the plugin the RTL cache uses is described.
declare module 'stylis' {
  import type { StylisPlugin } from '@emotion/cache';

  export type Middleware = StylisPlugin;
  export const prefixer: StylisPlugin;
}
