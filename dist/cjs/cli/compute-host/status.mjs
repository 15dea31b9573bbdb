// src/cli/compute-host/status.mjs
var S = Object.freeze({
  OK: 0,
  ERROR: 1,
  INVAL: 2,
  BADF: 3,
  BUFLEN: 4,
  UNSUPPORTED: 5,
  BADALIGN: 6,
  HTTPINVALID: 7,
  HTTPUSER: 8,
  HTTPINCOMPLETE: 9,
  NONE: 10,
  HTTPHEADTOOLARGE: 11,
  HTTPINVALIDSTATUS: 12,
  LIMITEXCEEDED: 13,
  AGAIN: 14
});
var SEND_ERR = Object.freeze({ OK: 1, DESTINATION_NOT_FOUND: 4, CONNECTION_REFUSED: 7, CONNECTION_TERMINATED: 8, CONNECTION_TIMEOUT: 9, HTTP_RESPONSE_TIMEOUT: 16, HTTP_PROTOCOL_ERROR: 19, INTERNAL_ERROR: 21 });
var KV_ERR = Object.freeze({ OK: 1, BAD_REQUEST: 2, NOT_FOUND: 3, PRECONDITION_FAILED: 4, INTERNAL_ERROR: 6 });
var INVALID_HANDLE = 4294967295;
var HostStatus = class extends Error {
  constructor(status) {
    super("hostcall status");
    this.status = status;
  }
};
export {
  HostStatus,
  INVALID_HANDLE,
  KV_ERR,
  S,
  SEND_ERR
};
