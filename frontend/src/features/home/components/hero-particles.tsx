import { keyframes } from '@emotion/react';
import Box from '@mui/material/Box';
import { useState } from 'react';
import { useMounted } from '../../../lib/use-mounted';

/** Spec 9: the hero's decorative background has 15 randomly placed particles. */
export const PARTICLE_COUNT = 15;

const float = keyframes`
  from { transform: translateY(0); }
  to { transform: translateY(-24px); }
`;

interface Particle {
  left: number;
  top: number;
  size: number;
  delay: number;
  duration: number;
}

function randomParticles(): Particle[] {
  return Array.from({ length: PARTICLE_COUNT }, () => ({
    left: Math.random() * 100,
    top: Math.random() * 100,
    size: 4 + Math.random() * 10,
    delay: Math.random() * 4,
    duration: 4 + Math.random() * 4,
  }));
}

/** Floating dots behind the hero; hidden from assistive technology, still when motion is reduced. */
export function HeroParticles() {
  // Placed once per visit: re-rendering must not make them jump.
  const [particles] = useState(randomParticles);
  // Random positions cannot match a prerendered page: the browser places them.
  const mounted = useMounted();
  if (!mounted) return null;
  return (
    <Box
      aria-hidden
      data-testid="hero-particles"
      sx={{ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none' }}
    >
      {particles.map((particle, index) => (
        <Box
          key={index}
          sx={{
            position: 'absolute',
            left: `${particle.left}%`,
            top: `${particle.top}%`,
            width: particle.size,
            height: particle.size,
            borderRadius: '50%',
            bgcolor: index % 2 === 0 ? 'primary.main' : 'secondary.main',
            opacity: 0.18,
            animation: `${float} ${particle.duration}s ease-in-out ${particle.delay}s infinite alternate`,
            '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
          }}
        />
      ))}
    </Box>
  );
}
