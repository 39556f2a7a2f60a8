/**
 * What `--artifacts` may name (runtime/src/artifacts/open.ts): a directory,
 * `pg:` or an `s3://` URL, normalised to what the run records, and every bad
 * location refused with what is wrong before anything is opened.
 */
import { describe, expect, it } from "vitest";
import { artifactLocationOf } from "../src/artifacts/open.js";
import { parseS3Location } from "../src/artifacts/s3-location.js";

describe("artifactLocationOf", () => {
  it.each([
    ["a relative directory, made absolute", "rel/dir", { kind: "dir", location: "/base/rel/dir" }],
    ["an absolute directory", "/srv/artifacts", { kind: "dir", location: "/srv/artifacts" }],
    ["the store's PostgreSQL", "pg:", { kind: "pg", location: "pg:" }],
    [
      "S3 with an endpoint",
      "s3://bucket/runs-a?endpoint=http://127.0.0.1:9000",
      { kind: "s3", location: "s3://bucket/runs-a?endpoint=http://127.0.0.1:9000" },
    ],
    ["S3 on AWS, no prefix", "s3://my.bucket", { kind: "s3", location: "s3://my.bucket" }],
  ])("%s", (_name, spec, want) => {
    expect(artifactLocationOf(spec, "/base")).toEqual(want);
  });

  it.each([
    ["another database", "pg:postgres://elsewhere/db", /write pg: alone/],
    ["credentials in the URL", "s3://key:secret@bucket/p", /holds no credentials/],
    ["a bucket name S3 refuses", "s3://Bucket_Name/p", /not an S3 bucket name/],
    ["an unknown parameter", "s3://bucket/p?acl=public", /unknown s3:\/\/ parameter acl/],
    ["an endpoint with a path", "s3://bucket/p?endpoint=http://h:1/x", /must be http\(s\):\/\/host\[:port\]/],
    ["another scheme", "ftp://host/dir", /unknown location; use a directory, pg: or s3:/],
  ])("refuses %s", (_name, spec, message) => {
    expect(() => artifactLocationOf(spec, "/base")).toThrow(message);
  });
});

describe("parseS3Location", () => {
  it("splits bucket, prefix, endpoint and region", () => {
    expect(parseS3Location("s3://bkt/a/b/?endpoint=https://s3.local:8443&region=eu-west-1")).toEqual({
      bucket: "bkt",
      prefix: "a/b",
      endpoint: "https://s3.local:8443",
      region: "eu-west-1",
    });
  });
});
