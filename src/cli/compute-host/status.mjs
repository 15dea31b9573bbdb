// Status codes and enums of the compute-at-edge ABI (typenames.witx, fastly's Viceroy repository).
export const S = Object.freeze({
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
  AGAIN: 14,
});

/** `$send_error_detail_tag` values the host reports. */
export const SEND_ERR = Object.freeze({ OK: 1, DESTINATION_NOT_FOUND: 4, CONNECTION_REFUSED: 7, CONNECTION_TERMINATED: 8, CONNECTION_TIMEOUT: 9, HTTP_RESPONSE_TIMEOUT: 16, HTTP_PROTOCOL_ERROR: 19, INTERNAL_ERROR: 21 });

/** `$kv_error` values. */
export const KV_ERR = Object.freeze({ OK: 1, BAD_REQUEST: 2, NOT_FOUND: 3, PRECONDITION_FAILED: 4, INTERNAL_ERROR: 6 });

export const INVALID_HANDLE = 0xffffffff;

/** Thrown inside a hostcall to return a status; never carries input. */
export class HostStatus extends Error {
  constructor(status) {
    super('hostcall status');
    this.status = status;
  }
}
