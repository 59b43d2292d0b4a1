import type { SyncAdapter } from './adapter';
import { crud, PAGES } from './capability';
import { type Api, day, num, str } from './values';

export const storedDocument: SyncAdapter<'document'> = {
  entity: 'document',
  fromApi: (r) => {
    const meta = (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Api;
    return {
      sha256: str(meta.sha256) ?? '',
      size: num(meta.size) ?? 0,
      mimetype: str(meta.mimetype) ?? '',
      fileName: str(r.fileName) ?? '',
      pathTokens: Array.isArray(r.pathTokens) ? (r.pathTokens.filter((t) => typeof t === 'string') as string[]) : [],
      title: str(r.title) ?? '',
      date: day(r.date),
      summary: str(r.summary),
    };
  },
  body: (fields) => {
    // The upload takes a folder path; its last token is the file name, which travels as fileName.
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      if (k !== 'pathTokens') out[k] = v;
      else if (Array.isArray(v) && v.length > 1) out.folder = v.slice(0, -1).join('/');
    }
    return out;
  },
  // The upload (an extension) takes the file, its name, folder and title; date and summary follow in an update.
  // A retried upload with its chosen id is answered 409 and the record there adopted: no Idempotency-Key needed.
  finops: crud({
    path: '/documents',
    list: PAGES,
    clientId: true,
    key: false,
    createFields: ['fileName', 'pathTokens', 'title'],
  }),
  // It cannot receive files (no upload route) and its documents' bytes are not ours to copy into the data dir
  // without one: documents stay local there (docs/decisions/0151-document-sync.md).
  hosted: null,
};
