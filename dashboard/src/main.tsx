import { render } from 'preact';
import { App } from './app.js';
import './styles.css';
import './lib/theme.js';

render(<App />, document.getElementById('app')!);
