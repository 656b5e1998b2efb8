import { ALERT_TONES, type AlertType } from '@curbside/domain';

type AudioContextClass = typeof AudioContext;

let context: AudioContext | null = null;

const audioContextClass = (): AudioContextClass | undefined =>
  window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;

const ensureContext = (): AudioContext | null => {
  if (context) return context;
  const Context = audioContextClass();
  if (!Context) return null;
  context = new Context();
  return context;
};

/**
 * Browsers only let a page make sound after a user gesture: the first tap
 * anywhere on the screen creates (or resumes) the audio context, so later
 * alerts can be heard.
 */
export const unlockAlertSoundOnFirstTap = () => {
  const unlock = () => {
    try {
      const audio = ensureContext();
      if (audio?.state === 'suspended') void audio.resume().catch(() => undefined);
    } catch (error) {
      console.warn('Alert sound unavailable:', error);
    }
  };
  document.addEventListener('pointerdown', unlock, { once: true, capture: true });
  return () => document.removeEventListener('pointerdown', unlock, { capture: true });
};

/**
 * Plays an alert's sound with the Web Audio API: three 880 Hz beeps 300 ms
 * apart for an emergency, one 440 Hz tone of 0.5 s for help. Where audio is
 * unsupported or refused, that is only logged.
 */
export const playAlertSound = (type: AlertType) => {
  try {
    const audio = ensureContext();
    if (!audio) {
      console.warn('Alert sound unavailable: this browser has no Web Audio API');
      return;
    }
    if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
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
  } catch (error) {
    console.warn('Alert sound could not play:', error);
  }
};
