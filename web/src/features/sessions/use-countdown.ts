import { countdownSeconds } from '@curbside/domain';
import { useEffect, useState } from 'react';

/** Seconds until `endTime` (never below 0), recomputed every second. */
export const useCountdown = (endTime: string) => {
  const [seconds, setSeconds] = useState(() => countdownSeconds(endTime));
  useEffect(() => {
    setSeconds(countdownSeconds(endTime));
    const timer = setInterval(() => setSeconds(countdownSeconds(endTime)), 1000);
    return () => clearInterval(timer);
  }, [endTime]);
  return seconds;
};
