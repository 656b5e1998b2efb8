import { NOT_A_PLACARD, OTHER_SCHOOL_PLACARD, parsePlacardCode, vehicleName } from '@curbside/domain';
import { Alert, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/http';
import { vehicleToastSubject, withdrawLiveToast } from '../../lib/toasts';
import { useAddToQueue } from '../queue/queue.queries';
import type { Decode } from './placard-decoder';

/** The same placard seen again within this many ms (held in front of the camera) counts once. */
export const SCAN_REPEAT_MS = 5_000;
/** How often a frame is read. */
const FRAME_MS = 200;

/** Why the camera did not open, as the Scan says it. */
export const CAMERA_PROBLEMS = {
  unsupported: 'This browser cannot open a camera. Type the number instead.',
  refused:
    "The camera was refused. Allow the camera for this site in the browser's settings, or type the number.",
  absent: 'No camera is available on this device. Type the number instead.',
  decoder: 'The scanner could not start. Type the number instead.',
} as const;

type PolicyDocument = Document & { featurePolicy?: { allowsFeature(feature: string): boolean } };

const problemOf = (error: unknown): string => {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return CAMERA_PROBLEMS.refused;
  return CAMERA_PROBLEMS.absent;
};

/** A short beep: a placard was read. */
const beep = () => {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 1320;
    gain.gain.value = 0.2;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.12);
    tone.onended = () => void audio.close();
  } catch {
    // No sound on this device: the flash says it.
  }
};

type Flash = { kind: 'queued' | 'refused'; text: string; at: number };

/**
 * The camera and what it read: each placard of the school is queued once (the
 * same add as typing its number), with a beep and a flash of its number; a
 * placard of another school, or any other code, is refused on screen.
 */
function Scanner({ sessionId, schoolId }: { sessionId: number; schoolId: number }) {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  // The latest reads, newest first: the flash of the last and the two before it.
  const [flashes, setFlashes] = useState<Flash[]>([]);
  const add = useAddToQueue();
  const addRef = useRef(add);
  addRef.current = add;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const seen = new Map<string, number>();
    const canvas = document.createElement('canvas');
    const setFlash = (flash: Flash) => setFlashes((list) => [flash, ...list].slice(0, 3));

    const handle = (text: string) => {
      const now = Date.now();
      const last = seen.get(text);
      seen.set(text, now);
      if (last !== undefined && now - last < SCAN_REPEAT_MS) return;
      const placard = parsePlacardCode(text);
      if (!placard) {
        setFlash({ kind: 'refused', text: NOT_A_PLACARD, at: now });
        return;
      }
      if (placard.schoolId !== schoolId) {
        setFlash({ kind: 'refused', text: OTHER_SCHOOL_PLACARD, at: now });
        return;
      }
      const name = vehicleName(placard.vehicleType, placard.vehicleNumber);
      beep();
      setFlash({ kind: 'queued', text: name, at: now });
      addRef.current
        .mutateAsync({ sessionId, vehicleNumber: placard.vehicleNumber, vehicleType: placard.vehicleType })
        .catch((refusal: unknown) => {
          withdrawLiveToast(vehicleToastSubject(placard.vehicleType, placard.vehicleNumber));
          setFlash({ kind: 'refused', text: `${name}: ${errorMessage(refusal)}`, at: Date.now() });
        });
    };

    const loop = (decode: Decode) => {
      const read = async () => {
        const source = video.current;
        if (stopped || !source) return;
        if (source.readyState >= 2 && source.videoWidth > 0) {
          canvas.width = source.videoWidth;
          canvas.height = source.videoHeight;
          canvas.getContext('2d', { willReadFrequently: true })?.drawImage(source, 0, 0);
          try {
            for (const text of await decode(canvas)) handle(text);
          } catch {
            // A frame that cannot be read: the next one may.
          }
        }
        if (!stopped) timer = setTimeout(read, FRAME_MS);
      };
      void read();
    };

    void (async () => {
      if ((document as PolicyDocument).featurePolicy?.allowsFeature('camera') === false) {
        // The page was reached without a load of /front-queue, whose policy allows the camera.
        window.location.reload();
        return;
      }
      if (!navigator.mediaDevices?.getUserMedia) {
        setProblem(CAMERA_PROBLEMS.unsupported);
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' } },
          audio: false,
        });
      } catch (error) {
        if (!stopped) setProblem(problemOf(error));
        return;
      }
      if (stopped) {
        for (const track of stream.getTracks()) track.stop();
        return;
      }
      if (video.current) {
        video.current.srcObject = stream;
        await video.current.play().catch(() => {});
      }
      let decode: Decode;
      try {
        decode = await (await import('./placard-decoder')).loadDecoder();
      } catch {
        if (!stopped) setProblem(CAMERA_PROBLEMS.decoder);
        return;
      }
      if (stopped) return;
      setReady(true);
      loop(decode);
    })();

    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [sessionId, schoolId]);

  return (
    <Stack gap="sm">
      {problem ? (
        <Alert color="red" role="alert" title="The camera did not open">
          {problem}
        </Alert>
      ) : (
        <Text fz="sm">
          {ready ? 'Hold a placard’s QR code in front of the camera.' : 'Opening the camera…'}
        </Text>
      )}
      <video
        ref={video}
        muted
        playsInline
        aria-label="Camera"
        style={{
          width: '100%',
          maxHeight: '50vh',
          background: '#000',
          borderRadius: 8,
          display: problem ? 'none' : 'block',
        }}
      />
      <Stack gap={6} role="status" aria-live="assertive" aria-label="Scanned">
        {flashes.map((flash, i) => (
          <Alert
            key={flash.at}
            color={flash.kind === 'queued' ? 'green.9' : 'red'}
            variant={flash.kind === 'queued' && i === 0 ? 'filled' : 'light'}
            p={i === 0 ? 'sm' : 6}
          >
            <Text fw={i === 0 ? 900 : 600} fz={i === 0 && flash.kind === 'queued' ? 32 : 'md'} ta="center">
              {flash.kind === 'queued' ? `Queued ${flash.text}` : flash.text}
            </Text>
          </Alert>
        ))}
      </Stack>
    </Stack>
  );
}

/**
 * The Scan's dialog, with its camera while `scanning` (h57b: its own chunk, fetched when the front
 * queue is painted and idle, or at the first Scan: `scan-placards.tsx`).
 */
export function ScanDialog({
  opened,
  scanning,
  onClose,
  sessionId,
  schoolId,
}: {
  opened: boolean;
  scanning: boolean;
  onClose: () => void;
  sessionId: number;
  schoolId: number;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Scan placards" size="lg">
      {scanning && <Scanner sessionId={sessionId} schoolId={schoolId} />}
    </Modal>
  );
}
