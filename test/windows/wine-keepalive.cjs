/**
 * Preloaded into every Windows Node of `npm run test:windows` (NODE_OPTIONS=--require), for a gap of Wine 8.0: it
 * refuses the TCP keep-alive options that Node sets on a socket still connecting (the connect then fails with
 * `connect UNKNOWN`), which Windows accepts. Node's fetch (undici) asks for keep-alive right after it starts to
 * connect, so without this no fetch reaches even 127.0.0.1 under Wine: the MCP clients of the agents among them.
 * Keep-alive asked for while connecting is applied once connected; nothing else changes.
 */
'use strict';
const net = require('node:net');

const setKeepAlive = net.Socket.prototype.setKeepAlive;
net.Socket.prototype.setKeepAlive = function keepAliveOnceConnected(...args) {
  if (this.connecting) {
    this.once('connect', () => setKeepAlive.apply(this, args));
    return this;
  }
  return setKeepAlive.apply(this, args);
};
