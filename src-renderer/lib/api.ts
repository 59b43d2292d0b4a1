/** The one API client of the UI; it reads the connection from the store on every call. */
import { createApiClient } from '../../src-shared/api-client';
import { useConnection } from '../stores/connection';

export const api = createApiClient({
  baseUrl: () => useConnection.getState().connection.baseUrl,
  token: () => useConnection.getState().connection.apiKey,
});
