'use strict';
/**
 * A real cipher standing in for the OS's (Electron's safeStorage) in tests: AES-256-GCM, the IV and tag stored
 * before the ciphertext. Used by the encrypted-file store's tests and by the stand-in electron module.
 */
const crypto = require('node:crypto');

function aesGcmCipher(key = crypto.randomBytes(32)) {
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decrypt(encrypted) {
      const d = crypto.createDecipheriv('aes-256-gcm', key, encrypted.subarray(0, 12));
      d.setAuthTag(encrypted.subarray(12, 28));
      return Buffer.concat([d.update(encrypted.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

module.exports = { aesGcmCipher };
