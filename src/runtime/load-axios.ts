import type { AxiosStatic } from 'axios';

/**
 * axios, loaded at its first use rather than at start: with form-data it is a tenth of a second of
 * start-up that `/pix help` or a Home tab never needs. `require`: this is CommonJS.
 */
export const loadAxios = (): AxiosStatic => (require('axios') as { default: AxiosStatic }).default;
