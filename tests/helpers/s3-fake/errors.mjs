// S3's error answers: a code, its HTTP status and the XML body S3 sends with it
// (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html). The AWS SDK turns the
// code into the error's name (NoSuchKey, NoSuchUpload, …), which is what the shop reads.
import { element, xmlDocument } from "./xml.mjs";

const STATUS = {
  AccessDenied: 403,
  AuthorizationQueryParametersError: 400,
  BadDigest: 400,
  EntityTooLarge: 400,
  EntityTooSmall: 400,
  IncompleteBody: 400,
  InternalError: 500,
  InvalidArgument: 400,
  InvalidPart: 400,
  InvalidPartOrder: 400,
  InvalidRange: 416,
  InvalidRequest: 400,
  InvalidURI: 400,
  KeyTooLongError: 400,
  MalformedXML: 400,
  MethodNotAllowed: 405,
  MissingContentLength: 411,
  NoSuchBucket: 404,
  NoSuchKey: 404,
  NoSuchUpload: 404,
  NotImplemented: 501,
  PreconditionFailed: 412,
};

export class S3Error extends Error {
  /**
   * @param {keyof typeof STATUS} code
   * @param {string} message
   * @param {Record<string, string | number>} [details] more elements of the answer (Key, UploadId, …)
   * @param {Record<string, string>} [headers] headers the answer carries (Content-Range for 416)
   */
  constructor(code, message, details = {}, headers = {}) {
    super(message);
    this.code = code;
    this.status = STATUS[code];
    this.details = details;
    this.headers = headers;
  }

  /** The XML body S3 sends (none to a HEAD). */
  body(resource, requestId) {
    return xmlDocument(
      element("Error", [
        element("Code", this.code),
        element("Message", this.message),
        ...Object.entries(this.details).map(([name, value]) => element(name, value)),
        element("Resource", resource),
        element("RequestId", requestId),
      ]),
      { namespaced: false },
    );
  }
}
