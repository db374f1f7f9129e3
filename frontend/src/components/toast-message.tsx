import Box from '@mui/material/Box';

export interface ToastMessageProps {
  title: string;
  description?: string;
}

export function ToastMessage({ title, description }: ToastMessageProps) {
  return (
    <Box>
      <Box component="strong" sx={{ display: 'block' }}>
        {title}
      </Box>
      {description ? <Box component="span">{description}</Box> : null}
    </Box>
  );
}
