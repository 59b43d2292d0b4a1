'use strict';
/**
 * `node --require register.cjs out/main/index.js`: runs the built main process with `require('electron')` answered
 * by the stand-in beside this file (the real package would try to download its binary). FAKE_ELECTRON_PLATFORM
 * makes the main process believe it runs on another OS (macOS window conventions on a Linux machine).
 */
const Module = require('node:module');
const path = require('node:path');

const fake = path.join(__dirname, 'electron.cjs');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'electron') return fake;
  return resolve.call(this, request, ...rest);
};
if (process.env.FAKE_ELECTRON_PLATFORM) {
  Object.defineProperty(process, 'platform', { value: process.env.FAKE_ELECTRON_PLATFORM });
}
