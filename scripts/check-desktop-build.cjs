#!/usr/bin/env node
'use strict';
/**
 * After `electron-vite build`: the files the packaged app opens by path at run time are in out/. The bundler
 * follows imports only, so a file started by path (the OCR worker thread's script, the parser sandbox's worker) is missing unless the build
 * copies it; Electron cannot be launched on the build machines, so this is where such a gap shows.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const out = (p) => path.join(root, 'out', p);
const expected = [
  ['main/index.js'],
  ['main/server-host.js'],
  ['main/ocr-worker.cjs', 'src-main/documents/ocr-worker.cjs'],
  ['main/parser-worker.cjs'],
  ['preload/index.js'],
  ['renderer/index.html'],
];
let missing = 0;
for (const [built, source] of expected) {
  if (!fs.existsSync(out(built))) {
    console.error(`check-desktop-build: out/${built} is missing`);
    missing++;
  } else if (source && !fs.readFileSync(out(built)).equals(fs.readFileSync(path.join(root, source)))) {
    console.error(`check-desktop-build: out/${built} differs from ${source}`);
    missing++;
  }
}
if (missing > 0) process.exit(1);
console.log(`check-desktop-build: ${expected.length} files in place`);
