import { ALERT_TONES, type AlertType } from '@curbside/domain';

type AudioContextClass = typeof AudioContext;

/**
 * Whether this page can make sound now: `ready` (the audio context runs),
 * `locked` (the browser wants a tap on the page first: after a reload, say),
 * `unsupported` (no Web Audio API).
 */
export type SoundState = 'ready' | 'locked' | 'unsupported';

let context: AudioContext | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

const audioContextClass = (): AudioContextClass | undefined =>
  window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;

const ensureContext = (): AudioContext | null => {
  if (context) return context;
  const Context = audioContextClass();
  if (!Context) return null;
  try {
    context = new Context();
  } catch (error) {
    console.warn('Alert sound unavailable:', error);
    return null;
  }
  context.addEventListener('statechange', notify);
  return context;
};

/** The page's sound state now (creates the audio context: browsers let a page make one, suspended, before a tap). */
export const soundState = (): SoundState => {
  const audio = ensureContext();
  if (!audio) return 'unsupported';
  return audio.state === 'running' ? 'ready' : 'locked';
};

/** Calls `listener` whenever the sound state may have changed; answers the unsubscription. */
export const onSoundState = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/**
 * Browsers only let a page make sound after a user gesture: every tap or key
 * press anywhere on the screen resumes the audio context while it is
 * suspended (a reloaded page needs one again). Answers the removal.
 */
export const unlockAlertSoundOnTap = () => {
  const unlock = () => {
    const audio = ensureContext();
    if (audio && audio.state !== 'running') void audio.resume().then(notify, () => undefined);
  };
  for (const type of ['pointerdown', 'keydown'] as const) {
    document.addEventListener(type, unlock, { capture: true });
  }
  return () => {
    for (const type of ['pointerdown', 'keydown'] as const) {
      document.removeEventListener(type, unlock, { capture: true });
    }
  };
};

/** How long a resume may take before the page counts as still locked (ms). */
const RESUME_WAIT_MS = 400;

/** Vibration patterns (ms) for phones that support it: three pulses for an emergency, one for help. */
const VIBRATION: Record<AlertType, number[]> = { emergency: [300, 150, 300, 150, 300], help: [500] };

/**
 * Plays an alert's sound with the Web Audio API: three 880 Hz beeps 300 ms
 * apart for an emergency, one 440 Hz tone of 0.5 s for help; phones that can
 * also vibrate. Answers whether the sound played: not while the browser
 * still wants a tap (the screen then shows the bar that asks for one), nor
 * where audio is unsupported or refused (only logged).
 */
export const playAlertSound = async (type: AlertType): Promise<boolean> => {
  try {
    const audio = ensureContext();
    if (!audio) {
      console.warn('Alert sound unavailable: this browser has no Web Audio API');
      return false;
    }
    if (audio.state !== 'running') {
      await Promise.race([
        audio.resume().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, RESUME_WAIT_MS)),
      ]);
      notify();
      if ((audio.state as AudioContextState) !== 'running') return false;
    }
    // Browsers refuse vibration before a tap too; past that, phones that can vibrate do.
    if (navigator.userActivation?.hasBeenActive !== false) navigator.vibrate?.(VIBRATION[type]);
    const start = audio.currentTime + 0.05;
    for (const tone of ALERT_TONES[type]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = tone.frequency;
      gain.gain.setValueAtTime(0.4, start + tone.start);
      gain.gain.setValueAtTime(0.4, start + tone.start + tone.duration - 0.02);
      gain.gain.linearRampToValueAtTime(0, start + tone.start + tone.duration);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start + tone.start);
      oscillator.stop(start + tone.start + tone.duration);
    }
    return true;
  } catch (error) {
    console.warn('Alert sound could not play:', error);
    return false;
  }
};
