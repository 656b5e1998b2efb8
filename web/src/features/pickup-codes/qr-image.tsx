import { Box, Center, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';

/** QR images are 256 px wide with a quiet zone of 2 modules (specification §9). */
export const QR_WIDTH = 256;
export const QR_MARGIN = 2;

/**
 * A QR image of `text`, drawn by `qrcode` as a PNG data URL. The library
 * loads with the first code shown; a failure is only logged (§8).
 */
export function QrImage({ text, label }: { text: string; label: string }) {
  const [image, setImage] = useState<{ text: string; url: string } | null>(null);

  useEffect(() => {
    let current = true;
    import('qrcode')
      .then(({ toDataURL }) => toDataURL(text, { width: QR_WIDTH, margin: QR_MARGIN }))
      .then((url) => {
        if (current) setImage({ text, url });
      })
      .catch((error: unknown) => console.error('QR code generation failed:', error));
    return () => {
      current = false;
    };
  }, [text]);

  return (
    <Box
      w={QR_WIDTH}
      h={QR_WIDTH}
      maw="100%"
      bg="white"
      style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden', flexShrink: 0 }}
    >
      {image?.text === text ? (
        <img
          src={image.url}
          alt={label}
          width={QR_WIDTH}
          height={QR_WIDTH}
          style={{ display: 'block', maxWidth: '100%', height: 'auto' }}
        />
      ) : (
        <Center h="100%">
          <Loader aria-label="Drawing QR code" color="dark" />
        </Center>
      )}
    </Box>
  );
}
