/**
 * smtp-server greets a connection 100 ms after it opened, to catch clients that talk before the greeting
 * (3.21.6, SMTPConnection#init). Postfix's smtpd greets at once (its pre-greeting test belongs to
 * postscreen, in front of it); the wait held every new connection 100 ms, which bounded mail over new
 * connections (BENCHMARKS.md, "Inbound SMTP"). The connection here is the library's but for that wait,
 * its connection limit kept; test/inbound/greeting.test.ts holds the two library methods this replaces
 * to the text they had when it was written, so an upgrade that changes them is seen.
 */
import type net from 'node:net';
import type tls from 'node:tls';
import { SMTPServer } from 'smtp-server';
import { SMTPConnection, type SMTPConnectionOptions } from 'smtp-server/lib/smtp-connection';

class PromptConnection extends SMTPConnection {
  override init(): void {
    this._setListeners(() => {
      const { maxClients } = this._server.options;
      if (maxClients && this._server.connections.size > maxClients)
        return this.send(421, `${this.name} Too many connected clients, try again in a moment`, false);
      this.connectionReady();
    });
  }
}

/** smtp-server's server, whose connections greet as soon as they are admitted. */
export class PromptSmtpServer extends SMTPServer {
  override connect(socket: net.Socket | tls.TLSSocket, socketOptions?: SMTPConnectionOptions | null): void {
    const connection = new PromptConnection(this, socket, socketOptions);
    this.connections.add(connection);
    connection.on('error', (error: Error) => this._onError(error));
    connection.on('connect', (data) => this._onClientConnect(data));
    connection.init();
  }
}
