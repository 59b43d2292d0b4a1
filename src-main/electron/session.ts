/**
 * The window's session: every permission request and permission check denied (the app needs none — no camera,
 * notifications, geolocation, clipboard reads, devices), and the UI's CSP enforced on the app's own pages even if
 * the server forgot it. No web contents may attach a <webview>.
 */
import { app, type Session } from 'electron';
import { UI_CONTENT_SECURITY_POLICY } from '../../src-shared/csp';

export function hardenSession(ses: Session, isAppPage: (url: string) => boolean, enforceCsp: boolean): void {
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    if (enforceCsp && details.resourceType === 'mainFrame' && isAppPage(details.url)) {
      headers['Content-Security-Policy'] = [UI_CONTENT_SECURITY_POLICY];
    }
    callback({ responseHeaders: headers });
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}
