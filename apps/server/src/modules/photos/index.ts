/** The photos module's public face: its service, and support's part of it (issue #27). */
export { type EncodedPhoto, PHOTO_ENCODING, PhotoService } from "./service.ts";
export { PhotoSupport, type SupportPhoto } from "./support.ts";
