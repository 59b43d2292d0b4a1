/**
 * Run by extraction.test.ts inside a network namespace with no network at all (`unshare -rn`): extracts the file
 * named on the command line and prints the result as JSON. Succeeding there proves extraction needs no network.
 */
import fs from 'node:fs';
import type { AcceptedType } from '../../../src-main/documents/detect';
import { extractFile } from '../../../src-main/documents/extract';
import { OcrEngine } from '../../../src-main/documents/ocr';

const [file, mimetype] = process.argv.slice(2) as [string, AcceptedType];
const ocr = new OcrEngine();
extractFile(fs.readFileSync(file), mimetype, ocr)
  .then(async (result) => {
    process.stdout.write(JSON.stringify(result));
    await ocr.stop();
  })
  .catch(async (err: unknown) => {
    process.stderr.write(String(err));
    await ocr.stop();
    process.exit(1);
  });
