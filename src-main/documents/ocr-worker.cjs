'use strict';
/**
 * The OCR worker thread: tesseract.js's own Node worker script, started behind a network guard. Language data comes
 * from the installed @tesseract.js-data package (langPath is a local folder); nothing may be fetched at run time,
 * so every way out of the process a dependency could take (fetch, http/https, raw sockets) fails loudly here
 * instead of reaching the network. The guard is installed before tesseract's script loads, so its captured `fetch`
 * is the guarded one. docs/decisions/0083-document-extraction.md.
 */
const net = require('node:net');
const http = require('node:http');
const https = require('node:https');

class NetworkBlocked extends Error {
  constructor(what) {
    super(`network access blocked in the OCR worker: ${what}`);
    this.name = 'NetworkBlocked';
  }
}
const block = (what) => () => {
  throw new NetworkBlocked(what);
};
globalThis.fetch = async (url) => {
  throw new NetworkBlocked(`fetch ${String(url)}`);
};
http.request = block('http.request');
http.get = block('http.get');
https.request = block('https.request');
https.get = block('https.get');
net.connect = block('net.connect');
net.createConnection = block('net.createConnection');
net.Socket.prototype.connect = block('net.Socket.connect');

// Languages arrive as bytes ({ code, data }: the main thread reads them from their npm packages, each its own
// folder). tesseract.js 7 loads them right but then initialises with `data` where it means `code`: hand its
// `initialize` handler the codes.
const { parentPort } = require('node:worker_threads');
const on = parentPort.on.bind(parentPort);
const withLanguageCodes = (packet) =>
  packet?.action === 'initialize' && Array.isArray(packet.payload?.langs)
    ? {
        ...packet,
        payload: { ...packet.payload, langs: packet.payload.langs.map((l) => (typeof l === 'string' ? l : l.code)).join('+') },
      }
    : packet;
parentPort.on = (event, listener) => on(event, event === 'message' ? (packet) => listener(withLanguageCodes(packet)) : listener);

require('tesseract.js/src/worker-script/node/index.js');
