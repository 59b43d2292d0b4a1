/** Saving a file the API serves (a document, an inbox item) under a name, as a browser download. */
import type { CallInput } from '../../src-shared/api-client';
import type { RouteContract } from '../../src-shared/contract/route';
import { api } from './api';

export async function downloadFile<R extends RouteContract>(route: R, input: CallInput<R>, fileName: string): Promise<void> {
  const blob = await api.file(route, input);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
