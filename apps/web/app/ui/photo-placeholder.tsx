import { type CSSProperties, useState } from "react";
import { useIntl } from "react-intl";

/**
 * What shows where a member has no photo (issue #29): a silhouette on a tinted ground, drawn inline
 * (no image to load) and sized by its container through `className`/`style`, like the photo it stands
 * for. With `name` it is an image named "{name} has no photo yet"; without, decoration beside a name
 * that is already written (chat list, chat header).
 */
export function PhotoPlaceholder({ name, className = "", style }: { name?: string; className?: string; style?: CSSProperties }) {
  const intl = useIntl();
  const silhouette = (
    <svg viewBox="0 0 100 100" preserveAspectRatio="xMidYMax meet" aria-hidden="true" focusable="false">
      <circle cx="50" cy="38" r="19" />
      <path d="M14 100c0-22 16-36 36-36s36 14 36 36z" />
    </svg>
  );
  const classes = `photo-placeholder ${className}`;
  if (name === undefined) {
    return (
      <span className={classes} style={style} aria-hidden="true" data-testid="photo-placeholder">
        {silhouette}
      </span>
    );
  }
  return (
    <span
      className={classes}
      style={style}
      role="img"
      aria-label={intl.formatMessage({ id: "member.no_photo" }, { name })}
      data-testid="photo-placeholder"
    >
      {silhouette}
    </span>
  );
}

/**
 * A thumbnail that falls back to the placeholder when it has no address or its file does not load (a
 * photo deleted or rejected since the page got its address, or one the asker may not see): never the
 * browser's broken image. Decoration without `alt` (for a name written beside it); with `alt`, the
 * placeholder keeps that name.
 */
export function PhotoOrPlaceholder({
  src,
  width,
  height,
  className = "",
  alt = "",
}: {
  src: string | null;
  width: number;
  height: number;
  className?: string;
  alt?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src === null || failed === src) {
    const placeholder = <PhotoPlaceholder className={className} style={{ width, height }} />;
    return alt ? (
      <span role="img" aria-label={alt} className="d-inline-block">
        {placeholder}
      </span>
    ) : (
      placeholder
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      className={`object-fit-cover ${className}`}
      onError={() => setFailed(src)}
      // Failed before hydration (no error event left to handle): known by its missing size.
      ref={(img) => {
        if (img?.complete && img.naturalWidth === 0) setFailed(src);
      }}
    />
  );
}
