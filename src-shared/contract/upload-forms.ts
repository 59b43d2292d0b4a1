import { z } from 'zod';

/**
 * How an upload route's file travels, for the OpenAPI document (the route contract's `bodyForms`): a multipart form
 * whose `file` part is the file, with text fields beside it, or the bare file as the whole body in its own media
 * type. The JSON form (base64 `content`) is the route's `body` itself.
 */
export function uploadForms(options: {
  mediaTypes: readonly string[];
  file: string;
  fields: z.ZodRawShape;
}): Record<string, z.ZodType> {
  const forms: Record<string, z.ZodType> = {
    'multipart/form-data': z.object({ file: z.file().describe(options.file), ...options.fields }),
  };
  for (const type of options.mediaTypes) {
    if (type === 'application/json' || type === 'multipart/form-data') continue;
    forms[type] = z.file().mime(type).describe(`${options.file}, as the whole body`);
  }
  return forms;
}

/** The file name of a bare-file upload travels in a header (percent-encoded when it is not ASCII). */
export const FileNameHeader = z
  .string()
  .max(1024)
  .optional()
  .describe('bare-file uploads: the file name, percent-encoded (UTF-8) when it is not ASCII');
