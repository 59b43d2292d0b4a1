/** The platform of this build. The desktop build replaces this module with ./desktop (electron.vite.config.ts). */
export { platform } from './web';
