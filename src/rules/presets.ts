/** Importing this module registers every track kind and every preset pipeline. */
import "./tracks/box";
import "./tracks/dc";
import "./fudge";
import "./miniatures";
import "./fate";
import "./volt";
